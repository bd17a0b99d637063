// Rudder's own /proc/<pid>/environ holds no key once it started (src/safety/own-environ.ts): a yolo
// command reading its parent's environment — encoded, so that redaction of the tool result cannot be
// what hides it — finds Rudder's variables but no key, neither one named like a credential nor one in a
// variable with a plain name that models.json points at. As root and as nobody (setpriv), since CI runs
// as root and users do not; Rudder still uses the key (the request carries it).
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { textBody, toolCallBody } from "../helpers/openai-chunks.js";
import { BIN, cliPerTest, runCli } from "../helpers/rudder-cli.js";

const LONG = 60_000;
const CRED = "llm-cred-value-0123456789abcdef";
const OPENAI = "sk-openai-env-0123456789abcdef";
const cli = cliPerTest();
const NOBODY = 65534;

/** Who runs Rudder: as root, root and nobody; as anyone else, that user. */
const users = process.getuid?.() === 0 ? ["root", "nobody"] : ["self"];

describe("Rudder's own environment", () => {
	it.each(users)(
		"as %s: a yolo command reads no key from /proc/$PPID/environ, and the request still carries the key",
		{
			timeout: LONG,
		},
		async (user) => {
			const { server, home } = await cli.serverAndBareHome();
			const models = {
				providers: { mock: { baseUrl: `${server.url}/v1`, api: "openai-completions", apiKey: "$LLM_CRED", models: [{ id: "mock-1" }] } },
			};
			writeFileSync(join(home.rudderHome, "models.json"), JSON.stringify(models));
			home.env.LLM_CRED = CRED;
			home.env.OPENAI_API_KEY = OPENAI;
			server.enqueue(
				{ kind: "sse", chunks: [toolCallBody("bash", { command: "base64 -w0 /proc/$PPID/environ" })] },
				{ kind: "sse", chunks: [textBody("done")] },
			);
			if (user === "nobody") execFileSync("chown", ["-R", `${NOBODY}:${NOBODY}`, dirname(home.cwd)]);
			const args = ["-p", "look", "--model", "mock/mock-1", "--permission-mode", "yolo", "--no-session"];
			const result =
				user === "nobody"
					? await runCli(["--reuid=65534", "--regid=65534", "--clear-groups", "--", process.execPath, BIN, ...args], home, {
							bin: "setpriv",
						})
					: await runCli(args, home);
			expect(result.stderr).toBe("");
			expect(result.code).toBe(0);
			expect(server.requests[0].headers.authorization).toBe(`Bearer ${CRED}`);
			const toolResult = server.requests[1].body.messages.find((m: { role: string }) => m.role === "tool");
			const environ = Buffer.from(String(toolResult.content).trim(), "base64").toString("utf8");
			// Rudder's own block (its home is there), without either key.
			expect(environ).toContain(`RUDDER_HOME=${home.rudderHome}\0`);
			expect(environ).toContain("PATH=");
			expect(environ).not.toContain(CRED);
			expect(environ).not.toContain(OPENAI);
			expect(environ).not.toContain("LLM_CRED=");
		},
	);
});
