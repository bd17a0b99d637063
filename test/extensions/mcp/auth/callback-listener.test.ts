// The sign-in's redirect listener on 127.0.0.1: only the exact state gets a code through, a wrong or
// missing state is refused and the listener keeps waiting, and after one answer it is closed.
import { describe, expect, it } from "vitest";
import { startCallbackListener } from "../../../../src/extensions/mcp/auth/callback-listener.js";

const get = async (url: string) => {
	const response = await fetch(url);
	return { status: response.status, text: await response.text() };
};

describe("sign-in callback listener", () => {
	it("refuses a wrong or missing state, takes the exact one, then is closed", async () => {
		const listener = await startCallbackListener({ state: "right-state-value", timeoutMs: 30_000 });
		expect(listener.redirectUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
		expect((await get(`${listener.redirectUrl}?code=evil&state=wrong`)).status).toBe(400);
		expect((await get(`${listener.redirectUrl}?code=evil`)).status).toBe(400);
		expect((await get(`${listener.redirectUrl.replace("/callback", "/other")}?code=evil&state=right-state-value`)).status).toBe(400);
		const ok = await get(`${listener.redirectUrl}?code=the-code&state=right-state-value`);
		expect(ok.status).toBe(200);
		expect(ok.text).toContain("Signed in");
		await expect(listener.code).resolves.toBe("the-code");
		await expect(fetch(`${listener.redirectUrl}?code=again&state=right-state-value`)).rejects.toThrow();
	});

	it("an error from the authorization server ends the wait with its (plain) text", async () => {
		const listener = await startCallbackListener({ state: "s-123", timeoutMs: 30_000 });
		await get(`${listener.redirectUrl}?state=s-123&error=access_denied&error_description=${encodeURIComponent("no \u001b[31mway")}`);
		await expect(listener.code).rejects.toThrow("the authorization server answered access_denied: no  [31mway");
	});

	it("gives up after the timeout and on abort", async () => {
		const slow = await startCallbackListener({ state: "s", timeoutMs: 50 });
		await expect(slow.code).rejects.toThrow("no answer from the browser within 0 s");
		const controller = new AbortController();
		const aborted = await startCallbackListener({ state: "s", timeoutMs: 30_000, signal: controller.signal });
		controller.abort();
		await expect(aborted.code).rejects.toThrow("sign-in cancelled");
	});
});
