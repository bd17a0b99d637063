// The app over a real AgentSession and the faux provider streaming a reply with a known secret in it,
// cut across deltas: no frame ever shows the secret or its start, and the reply shows [redacted].
import { afterEach, describe, expect, it, vi } from "vitest";
import { fauxAssistantMessage, fauxText } from "../../src/ai/index.js";
import { processSecrets } from "../../src/safety/secrets.js";
import { createFixture, type Fixture } from "../session/session-fixture.js";
import { mountOnSession } from "./mount-app.js";

let fx: Fixture | undefined;
let unmount: (() => void) | undefined;
afterEach(async () => {
	unmount?.();
	await fx?.cleanup();
});

describe("App streaming a known secret", () => {
	it("no frame shows the secret, while streaming or after", async () => {
		const secret = "sk-screen-secret-0123456789";
		processSecrets.add(secret);
		// Slow tokens: the frames in between are drawn while the secret is half sent.
		fx = await createFixture({ fauxRate: 200 });
		fx.faux.setResponses([fauxAssistantMessage([fauxText(`Your key is ${secret} and that is all.`)])]);
		const { app, frame, type } = await mountOnSession(fx.session, { rows: 20, columns: 100 });
		unmount = () => app.unmount();
		await type("what is my key?");
		await type("\r");
		await vi.waitFor(() => expect(frame()).toContain("Your key is [redacted] and that is all."), { timeout: 10_000 });
		expect(app.frames.length).toBeGreaterThan(3);
		for (const drawn of app.frames) expect(drawn).not.toContain("sk-scr");
	});
});
