/**
 * The parts of Excel's custom-functions runtime the add-in uses (no @types package for it is
 * installed). Excel provides `CustomFunctions` as a global in the shared runtime; the
 * metadata generator recognises the invocation parameter types by these names.
 */
declare global {
  namespace CustomFunctions {
    enum ErrorCode {
      invalidValue = '#VALUE!',
      notAvailable = '#N/A',
      divisionByZero = '#DIV/0!',
      invalidNumber = '#NUM!',
      nullReference = '#NULL!',
      invalidName = '#NAME?',
      invalidReference = '#REF!',
    }
    class Error {
      constructor(errorCode: ErrorCode, errorMessage?: string);
      code: ErrorCode;
      message?: string;
    }
    interface Invocation {
      address?: string;
      functionName?: string;
      parameterAddresses?: string[];
      /** CustomFunctionsRuntime 1.5: true while Excel shows a formula's value preview. */
      isInValuePreview?: boolean;
    }
    interface CancelableInvocation extends Invocation {
      onCanceled: () => void;
    }
    interface StreamingInvocation<ResultType> extends CancelableInvocation {
      setResult: (value: ResultType | Error) => void;
    }
    function associate(id: string, functionObject: (...args: never[]) => unknown): void;
    function associate(mappings: Record<string, (...args: never[]) => unknown>): void;
  }
}

export {};
