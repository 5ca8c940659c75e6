/** Where Microsoft serves office.js; AppSource requires add-ins to reference it there. */
export const OFFICE_JS_CDN = 'https://appsforoffice.microsoft.com/lib/1/hosted/office.js';
/** Where the host serves the npm copy (@microsoft/office-js) when told to. */
export const OFFICE_JS_LOCAL_PREFIX = '/office-js/';
