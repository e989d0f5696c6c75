/** A backup or restore that cannot go on, for a reason the person running it can act on: printed without a stack. */
export class BackupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BackupError';
  }
}
