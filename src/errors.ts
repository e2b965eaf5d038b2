import type { ErrorBody, ErrorCode } from './contract.ts';

/** An error a port answers with. Its message is shown to people and never carries a value. */
export class VaultError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'VaultError';
  }

  get body(): ErrorBody {
    return { code: this.code, message: this.message };
  }
}

export const einval = (message: string) => new VaultError('EINVAL', message);
export const enoent = (message: string) => new VaultError('ENOENT', message);

/** The error body for anything thrown: a VaultError as it is, anything else without its text. */
export function errorBody(error: unknown): ErrorBody {
  if (error instanceof VaultError) return error.body;
  return { code: 'EAGAIN', message: 'the vault could not complete the request; try again' };
}
