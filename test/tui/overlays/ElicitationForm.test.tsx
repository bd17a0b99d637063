// The MCP elicitation form in the app (ink-testing-library): the defaults shown and accepted by Enter,
// fields edited by keys, a value the schema forbids kept open with the problem, Esc declining, the
// server's escape sequences shown as text, and the URL request asking before anything opens.
import { describe, expect, it } from "vitest";
import { parseElicitation } from "../../../src/extensions/mcp/elicitation.js";
import type { ElicitationRequest } from "../../../src/session/types.js";
// @ts-expect-error the fixture is plain JavaScript, run by node without a build
import { FORM } from "../../fixtures/mcp/feature-server.mjs";
import type { FakeSession } from "../app/fake-session.js";
import { mountApp } from "../app/mount-app.js";

const formRequest = (): ElicitationRequest => ({ ...parseElicitation("features", FORM), id: "elicit-1" });
const answers = (session: { calls: { method: string; args: unknown[] }[] }) =>
	session.calls.filter((c) => c.method === "respondToElicitation").map((c) => c.args[1]);

/** The session's question arriving as the real session announces it: state and event together. */
const ask = (session: FakeSession, request: ElicitationRequest) =>
	session.setState({ pendingElicitation: request }, { type: "elicitation_request", ...request });

describe("ElicitationForm", () => {
	it("shows the server's form with its defaults; Enter accepts what is shown", async () => {
		const { session, frame, type } = await mountApp();
		ask(session, formRequest());
		await type("");
		const shown = frame();
		expect(shown).toContain("MCP server features asks for input:");
		// The title escape and the screen clear arrive as visible text, never as control sequences.
		expect(shown).toContain("Configure the ^[]0;pwned^Gdeployment^[[2J");
		expect(shown).not.toContain("\x1b]0;");
		expect(shown).toContain("› Name *: Ada▏");
		expect(shown).toContain("Port *: 8080");
		expect(shown).toContain("Verbose: [x] yes");
		expect(shown).toContain("Colour: ‹ Green ›");
		await type("\r");
		expect(answers(session)).toEqual([{ action: "accept", content: { name: "Ada", port: 8080, verbose: true, color: "green" } }]);
		expect(frame()).not.toContain("asks for input");
	});

	it("edits fields with the keys and keeps a value the schema forbids open with the problem", async () => {
		const { session, frame, type } = await mountApp();
		ask(session, formRequest());
		await type("");
		await type("\x7f\x7f\x7fGrace");
		await type("\x1b[B");
		await type("\x7f\x7f\x7f\x7f70000");
		await type("\x1b[B");
		await type(" ");
		await type("\x1b[B");
		await type("\x1b[D");
		expect(frame()).toContain("Name *: Grace");
		expect(frame()).toContain("Verbose: [ ] no");
		expect(frame()).toContain("Colour: ‹ Red ›");
		await type("\r");
		expect(frame()).toContain("Port: must be at most 65535");
		expect(answers(session)).toEqual([]);
		await type("\x1b[A\x1b[A");
		await type("\x7f\x7f\x7f\x7f\x7f443");
		await type("\r");
		expect(answers(session)).toEqual([{ action: "accept", content: { name: "Grace", port: 443, verbose: false, color: "red" } }]);
	});

	it("Esc declines, and typed text never reaches the input", async () => {
		const { session, frame, type } = await mountApp();
		ask(session, formRequest());
		await type("");
		await type("x");
		await type("\x1b");
		expect(answers(session)).toEqual([{ action: "decline" }]);
		expect(frame()).not.toContain("asks for input");
		expect(session.calls.some((c) => c.method === "submit")).toBe(false);
	});

	it("a form taller than the room shows a window around the focused field", async () => {
		const { session, frame, type } = await mountApp({ rows: 14 });
		const properties = Object.fromEntries(
			Array.from({ length: 20 }, (_, i) => [`f${i}`, { type: "string", title: `Field${i}`, default: `v${i}` }]),
		);
		ask(session, { ...parseElicitation("features", { message: "Many", requestedSchema: { type: "object", properties } }), id: "elicit-3" });
		await type("");
		expect(frame()).toContain("› Field0: v0");
		expect(frame()).toContain("… 16 more fields (↑/↓)");
		expect(frame()).not.toContain("Field10");
		for (let i = 0; i < 10; i++) await type("\x1b[B");
		expect(frame()).toContain("› Field10: v10");
		expect(frame()).not.toContain("Field0:");
		// The frame still fits: the footer is drawn.
		expect(frame()).toContain("fake/fake-1");
	});

	it("a URL request shows the address and opens it only on Enter", async () => {
		const { session, frame, type } = await mountApp();
		const request: ElicitationRequest = {
			...parseElicitation("features", { mode: "url", message: "Sign in", url: "https://example.com/a", elicitationId: "e" }),
			id: "elicit-2",
		};
		ask(session, request);
		await type("");
		expect(frame()).toContain("MCP server features asks you to open a page:");
		expect(frame()).toContain("https://example.com/a");
		expect(frame()).toContain("Enter opens it in your browser · Esc declines");
		await type("\r");
		expect(answers(session)).toEqual([{ action: "accept" }]);
	});
});
