// The typed API client: openapi-fetch over the types openapi-typescript
// generates from openapi/openapi.yaml (src/api/schema.d.ts, `npm run gen`).
// Every call carries the signed-in user's bearer token; an error answer is
// thrown as a Problem (RFC 9457) so pages can show each error at the field
// its `location` names.
import createClient, { type Middleware } from "openapi-fetch";
import type { components, paths } from "./schema";
import { currentToken, signOut } from "../auth";

export type Schemas = components["schemas"];

export class Problem extends Error {
  status: number;
  title: string;
  detail: string;
  errors: { location?: string; message?: string; row?: number; column?: string }[];
  constructor(status: number, body: Partial<Schemas["Problem"]> | undefined) {
    const title = body?.title ?? `HTTP ${status}`;
    super(body?.detail || title);
    this.status = status;
    this.title = title;
    this.detail = body?.detail ?? "";
    this.errors = (body?.errors ?? []) as Problem["errors"];
  }
  /**
   * The message of the error at a location (e.g. "body.users[0].role") or
   * inside it ("body.reminder_offsets_days[1]" for "body.reminder_offsets_days").
   */
  at(location: string): string | undefined {
    const inside = (l?: string) => l === location || l?.startsWith(`${location}[`) || l?.startsWith(`${location}.`);
    return this.errors.find((e) => inside(e.location))?.message;
  }
}

const auth: Middleware = {
  onRequest({ request }) {
    const token = currentToken();
    if (token) request.headers.set("Authorization", `Bearer ${token}`);
    return request;
  },
  onResponse({ response }) {
    if (response.status === 401) signOut();
    return response;
  },
};

export const api = createClient<paths>({ baseUrl: "" });
api.use(auth);

/** unwrap turns an openapi-fetch result into its data or a thrown Problem. */
export async function unwrap<T>(p: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await p;
  if (!response.ok) throw new Problem(response.status, error as Schemas["Problem"]);
  return data as T;
}

/** fieldError says what a problem names at a location, for a form field. */
export function fieldError(err: unknown, location: string): string | undefined {
  return err instanceof Problem ? err.at(location) : undefined;
}
