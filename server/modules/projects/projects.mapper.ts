import type { Schemas } from '../../lib/openapi-types';
import type { ProjectDoc } from './projects.model';

/** What a project shows of its pieces to one caller: only those the caller may see, and their shown reactions. */
export interface ShownPieces {
  contents: Schemas['Content'][];
  ownerName: string;
  ownerUsername: string;
}

export function toProjectDto(project: ProjectDoc, shown: ShownPieces): Schemas['Project'] {
  return {
    id: String(project._id),
    projectName: project.projectName,
    userId: String(project.userId),
    ownerName: shown.ownerName,
    ownerUsername: shown.ownerUsername,
    contentIds: shown.contents.map((piece) => piece.id),
    pieceCount: shown.contents.length,
    coverPath: shown.contents[0]?.thumbPath ?? null,
    reactedCount: shown.contents.reduce((sum, piece) => sum + (piece.reactedCount ?? 0), 0),
    createdAt: project.createdAt.toISOString(),
  };
}
