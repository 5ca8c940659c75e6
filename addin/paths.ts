import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The addin/ folder, wherever the project is checked out. */
export const ADDIN_DIR = path.dirname(fileURLToPath(import.meta.url));
