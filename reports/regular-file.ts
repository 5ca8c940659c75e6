/** The regular-file reader lives in src/ (src/brand reads the brand's files with it too); the report folder's readers import it from here. */
export * from '../src/regular-file';
