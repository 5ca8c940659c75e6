/** Excel's custom-functions globals, as the SVC functions see them in the shared runtime, for tests that call the functions in Node. */
export class ExcelError {
  constructor(
    readonly code: string,
    readonly message?: string,
  ) {}
}

(globalThis as unknown as { CustomFunctions: unknown }).CustomFunctions = {
  Error: ExcelError,
  ErrorCode: { invalidValue: '#VALUE!', notAvailable: '#N/A' },
  associate: () => undefined,
};
