// Backup and restore (README, Backup and restore): age files of a namespace's records, `.env`
// files, the restore plan the preview shows, and the service the popup runs them with.
export { SCRYPT_WORK_FACTOR, checkFileSize, decryptAge, dotenvText, encryptBackup, fileKind, isAgeHead } from './age.ts';
export { Abandoned } from './age-client.ts';
export { readDotenv } from './dotenv.ts';
export { BACKUP_FORMAT, BACKUP_VERSION, BackupError, type Incoming, type ReadFile, backupFileName, backupJson, excerpt, readBackup } from './format.ts';
export { readBackupFile, readDotenvFile } from './read.ts';
export { type Current, type PreviewItem, type PreviewStatus, type RestorePlan, type RestoreWrite, planRestore } from './plan.ts';
export { type BackupOptions, BackupService, type BackupWorld, type ChosenFile, type MadeBackup, type Say, checkBackupPassphrase } from './service.ts';
