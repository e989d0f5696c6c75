import { Schema, model, type Types } from 'mongoose';

/**
 * A member's project: a name over some of their own pieces. Which pieces are in it is the pieces' own `projectId`
 * (the contents module writes it): one field on each piece, so two members of one project added at once never
 * overwrite each other, and a piece is in at most one project.
 */
const projectSchema = new Schema(
  {
    userId: { type: Schema.Types.ObjectId, required: true },
    projectName: { type: String, required: true },
    createdAt: { type: Date, required: true },
  },
  { versionKey: false },
);
projectSchema.index({ userId: 1, createdAt: -1 });

export interface ProjectDoc {
  _id: Types.ObjectId;
  userId: Types.ObjectId;
  projectName: string;
  createdAt: Date;
}

export const ProjectModel = model<ProjectDoc>('Project', projectSchema, 'projects');
