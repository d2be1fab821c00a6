import { completionTests } from './completion-suite.js';

completionTests('general');
