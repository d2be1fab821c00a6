import { afterAll } from 'vitest';
import { removeFileTempDirs } from './support/temp-dir.js';

// In-process runs share this process's time zone: the same fixed one the subprocess runs are given.
process.env.TZ = 'UTC';

// Registered before the file's own hooks, so it runs after them (vitest runs `after` hooks in reverse order).
afterAll(removeFileTempDirs);
