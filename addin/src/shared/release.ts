/** The release label addin:build bakes into the bundles (package version unless --release says otherwise). */
declare const __SVC_ADDIN_RELEASE__: string | undefined;

export const ADDIN_RELEASE: string = typeof __SVC_ADDIN_RELEASE__ === 'string' ? __SVC_ADDIN_RELEASE__ : 'unbuilt';
