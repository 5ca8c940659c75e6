import path from 'node:path';
import { packageRoot } from '../src/package-root';

/** The addin/ folder, wherever the project is checked out or installed (source or compiled). */
export const ADDIN_DIR = path.join(packageRoot(), 'addin');
