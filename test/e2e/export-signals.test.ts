import { exportTests } from './export-suite.js';

exportTests('b');
