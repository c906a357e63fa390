// The one codec of convkit's errors as plain data, for whatever carries only data: a worker
// thread's structured clone (which keeps an Error's message, not its class or fields) and Redis
// (BullMQ keeps a failure as a string: the data in JSON). An error keeps its class, stable `code`
// (errors.ts lists them), fields, message, exit code and `cause` chain.
import { DownloadError } from "./download.js";
import { ConvkitError, InputError, type InputLocation, OutputError, UsageError } from "./errors.js";

/** An error as data: JSON- and structured-clone-safe. */
export interface ErrorData {
  /** The class's code; `"foreign"` for an error that is not convkit's (a bug, a library's). */
  readonly convkitError: string;
  readonly message: string;
  /** A foreign error's name (`RangeError`). */
  readonly name?: string;
  /** A convkit error of another code than io's: its exit code. */
  readonly exitCode?: number;
  /** The class's constructor fields (an InputError's file, location, expected, found). */
  readonly fields?: readonly unknown[];
  readonly cause?: ErrorData;
}

/** A convkit error of a code io has no class for (a package's own): its code and exit code kept. */
class CodedError extends ConvkitError {
  constructor(
    override readonly code: string,
    message: string,
    override readonly exitCode: number,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = "ConvkitError";
  }
}

/** Deepest cause chain kept (a chain is a few links; a cycle must not loop). */
const MAX_CAUSES = 16;

/** `e` as data: convkit's errors and their causes (any error as a cause); undefined for a non-error. */
function toData(e: unknown, depth: number): ErrorData | undefined {
  if (!(e instanceof Error)) return undefined;
  const cause = depth < MAX_CAUSES ? toData(e.cause, depth + 1) : undefined;
  const base = { message: e.message, ...(cause ? { cause } : {}) };
  if (!(e instanceof ConvkitError)) return { convkitError: "foreign", name: e.name, ...base };
  const fields =
    e instanceof InputError
      ? [e.file, e.location, e.expected, e.found]
      : e instanceof OutputError
        ? [e.path, e.reason, e.errno]
        : e instanceof DownloadError
          ? [e.url, e.reason]
          : undefined;
  return { convkitError: e.code, exitCode: e.exitCode, ...(fields ? { fields } : {}), ...base };
}

/**
 * A thrown value as data: a convkit error as {@link ErrorData}; anything else as it is (a worker
 * thread's structured clone keeps a foreign error's message and stack, which its report shows).
 */
export function errorToData(e: unknown): unknown {
  return e instanceof ConvkitError ? toData(e, 0) : e;
}

/** `e` as data whatever it is: for JSON, which keeps no Error at all (a non-error as its text). */
export function anyErrorToData(e: unknown): ErrorData {
  return toData(e, 0) ?? { convkitError: "foreign", name: "Error", message: String(e) };
}

const str = (v: unknown): string => (typeof v === "string" ? v : "");

/** Whether `v` has the shape of {@link ErrorData} (fields are checked by the class they build). */
function isErrorData(v: unknown): v is ErrorData {
  return (
    typeof v === "object" &&
    v !== null &&
    "convkitError" in v &&
    typeof v.convkitError === "string" &&
    "message" in v &&
    typeof v.message === "string"
  );
}

function isLocation(v: unknown): v is InputLocation {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function fromData(d: ErrorData, depth: number): Error {
  const cause = depth < MAX_CAUSES && isErrorData(d.cause) ? fromData(d.cause, depth + 1) : undefined;
  const options = cause ? { cause } : undefined;
  const [a, b, c, x] = Array.isArray(d.fields) ? d.fields : [];
  let e: Error;
  switch (d.convkitError) {
    case "foreign":
      e = new Error(d.message, options);
      e.name = str(d.name) || "Error";
      return e;
    case "input":
      e = new InputError(str(a), isLocation(b) ? b : {}, str(c), str(x), options);
      break;
    case "usage":
      e = new UsageError(d.message, options);
      break;
    case "output":
      e = new OutputError(str(a), str(b), typeof c === "string" ? c : undefined, options);
      break;
    case "download":
      e = new DownloadError(str(a), str(b), options);
      break;
    case "error":
      e = new ConvkitError(d.message, options);
      break;
    default:
      e = new CodedError(d.convkitError, d.message, d.exitCode === 2 ? 2 : 1, options);
  }
  // The message as it was: a class's own may have been replaced (throwIfParquet's).
  e.message = d.message;
  return e;
}

/** The error {@link errorToData} or {@link anyErrorToData} gave, its class restored; anything else as it is. */
export function errorFromData(v: unknown): unknown {
  return isErrorData(v) ? fromData(v, 0) : v;
}
