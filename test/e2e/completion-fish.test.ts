import { completionTests } from './completion-suite.js';

completionTests('fish');
