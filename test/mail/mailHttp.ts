// Raw HTTP calls to the mail service, so the tests see statuses and envelopes exactly as sent.
export const PREFIX = "/api/batch_mail/api";

export interface Answer {
  status: number;
  body: { success: boolean; code: number; msg: string; data: any };
}

export async function post(base: string, path: "send" | "batch_send", body: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const res = await fetch(`${base}${PREFIX}/${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": "test-key-0001", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Answer["body"] };
}

export async function status(base: string, id: string, headers: Record<string, string> = {}): Promise<Answer> {
  const res = await fetch(`${base}${PREFIX}/status/${id}`, { headers: { "x-api-key": "test-key-0001", ...headers } });
  return { status: res.status, body: (await res.json()) as Answer["body"] };
}
