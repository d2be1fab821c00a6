import { terminalTests } from './terminal-suite.js';

terminalTests('a');
