// Backup and restore (README, Backup and restore): age files of a namespace's records, `.env`
// files, the restore plan the preview shows, and the service the popup runs them with.
export { Abandoned } from './age-client.ts';
export { BackupError } from './format.ts';
export type { PreviewItem, RestorePlan } from './plan.ts';
export { type BackupOptions, BackupService, checkBackupPassphrase } from './service.ts';
