// Writes a long session in Rudder's own format, through its own writer, for the resume benchmark.
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { root } from "./apps.mjs";
import { usage } from "./long-session.mjs";

export async function writeSyntheticSession(app, messages) {
	if (app.name !== "rudder") throw new Error(`no synthetic session writer for ${app.name}`);
	const { SessionLog } = await import(pathToFileURL(join(root, "dist", "src", "session", "session-log.js")).href);
	const writer = SessionLog.create({ cwd: app.cwd, env: { RUDDER_HOME: app.home } });
	const paragraph = "This reply explains a change to the render path in a few sentences of ordinary length. ".repeat(4);
	for (let i = 0; i < messages; i++) {
		const timestamp = Date.now();
		const message =
			i % 2 === 0
				? { role: "user", content: `question ${i}: what does this part of the code do?`, timestamp }
				: {
						role: "assistant",
						content: [{ type: "text", text: `## Answer ${i}\n\n${paragraph}\n\n- one\n- two\n` }],
						api: "openai-completions",
						provider: "mock",
						model: "mock-1",
						usage,
						stopReason: "stop",
						timestamp,
					};
		writer.append({ type: "message", message });
	}
	writer.close();
	return writer.path;
}
