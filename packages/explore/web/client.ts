// The page's side of the API: typed requests (the route table in src/api.ts), a static export's inlined answers, readable errors.
import { type Answers, type ApiError, apiUrl, type RoutePath } from "../src/shared/api.js";
import type { Req } from "../src/shared/views.js";

declare global {
  interface Window {
    /** A static export's answers, by request URL (see --static). */
    __CONVKIT_DATA__?: Record<string, unknown>;
    /** Set once a view has rendered (tests and screenshots wait for it). */
    __CONVKIT_READY__?: string;
  }
}

/** An answer other than 200, with the server's own sentence (and the parameter it names). */
export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly parameter?: string,
  ) {
    super(message);
  }
}

/** A request a static page does not hold: it needs the live server. */
export class NeedsServer extends Error {}

export const isStatic = (): boolean => window.__CONVKIT_DATA__ !== undefined;

/** Whether a static page holds this request's answer (always true when served). */
export function holds(r: Req | undefined): boolean {
  // A plan without this request (an item the view cannot open) holds nothing.
  if (r === undefined) return false;
  const d = window.__CONVKIT_DATA__;
  return d === undefined || apiUrl(r.path, r.params) in d;
}

export async function get<P extends RoutePath>(r: Req<P>): Promise<Answers[P]> {
  const url = apiUrl(r.path, r.params);
  const inline = window.__CONVKIT_DATA__;
  if (inline) {
    if (url in inline) return inline[url] as Answers[P];
    throw new NeedsServer(
      "This part is not in the static page: open it with the live server (convkit-explore with the same files).",
    );
  }
  let res: Response;
  try {
    res = await fetch(url);
  } catch {
    throw new ApiFailure(0, "The explorer's server does not answer (stopped?).");
  }
  // The browser's own parse (the JSON boundary, @convkit/json, reaches node: through @convkit/io);
  // an empty or non-JSON body is none.
  const body: unknown = await res.json().catch(() => undefined);
  if (!res.ok) {
    const e = body as Partial<ApiError> | undefined;
    throw new ApiFailure(
      res.status,
      e?.error ??
        `The server answered ${res.status} ${res.statusText || ""} without saying why.`.replace("  ", " "),
      e?.parameter,
    );
  }
  if (body === undefined) throw new ApiFailure(res.status, `The server's answer to ${r.path} is not JSON.`);
  return body as Answers[P];
}
