// Two processes on one session file: the second gets one clear line naming the first and the way on
// (fork into a copy); a lock left by a killed process is taken over. The holder is a real process.
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { fauxAssistantMessage } from "../../src/ai/index.js";
import { loadSession } from "../../src/session/session-load.js";
import { childBundle } from "../helpers/child-bundle.js";
import { createFixture, type Fixture } from "./session-fixture.js";

const holder = childBundle(join(import.meta.dirname, "fixtures", "session-holder-child.ts"));

let fx: Fixture;
const children: ChildProcessWithoutNullStreams[] = [];
afterEach(async () => {
	for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
	await fx?.cleanup();
});

/** Starts a holder of `file` and resolves once it has the session open. */
function hold(file: string): Promise<{ child: ChildProcessWithoutNullStreams; pid: number }> {
	const child = spawn(process.execPath, [holder.path(), fx.cwd, fx.env.RUDDER_HOME, file], { stdio: ["pipe", "pipe", "pipe"] });
	children.push(child);
	return new Promise((resolve, reject) => {
		let out = "";
		let err = "";
		child.stderr.on("data", (d) => {
			err += d;
		});
		child.stdout.on("data", (d) => {
			out += d;
			const line = out.split("\n")[0];
			if (!out.includes("\n")) return;
			const reply = JSON.parse(line);
			if (reply.ready) resolve({ child, pid: reply.pid });
			else reject(new Error(reply.error));
		});
		child.on("exit", (code) => reject(new Error(`holder exited ${code}: ${err}`)));
	});
}

const exited = (child: ChildProcessWithoutNullStreams) =>
	new Promise<number | null>((resolve) => (child.exitCode !== null ? resolve(child.exitCode) : child.on("exit", (code) => resolve(code))));

async function savedSession(): Promise<string> {
	fx = await createFixture();
	fx.faux.setResponses([fauxAssistantMessage("first answer")]);
	await fx.session.prompt("first question");
	const file = fx.session.getState().sessionFile as string;
	await fx.session.dispose();
	return file;
}

describe("the session file lock", () => {
	it("a second process gets one line naming the holder, can fork into a copy, and opens the file once the holder has closed it", async () => {
		const file = await savedSession();
		const { child, pid } = await hold(file);
		const before = readFileSync(file);

		const refused = fx.open({ sessionMode: { kind: "file", path: file } });
		await expect(refused).rejects.toThrow(
			`${file} is open in another rudder (pid ${pid}); close that one, or fork the session to continue in a copy (--fork)`,
		);
		await expect(refused).rejects.not.toThrow(/\n/);

		const fork = await fx.open({ sessionMode: { kind: "file", path: file, fork: true } });
		const forkFile = fork.getState().sessionFile as string;
		expect(forkFile).not.toBe(file);
		expect(fork.getState().messages.map((m) => m.role)).toEqual(["user", "assistant"]);
		fx.faux.setResponses([fauxAssistantMessage("in the copy")]);
		await fork.prompt("second question");
		await fork.dispose();
		const copy = loadSession(forkFile);
		expect(copy.header.parentSession).toBe(file);
		expect(copy.messages.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant"]);
		// The holder's file got nothing from us: no interleaved lines.
		expect(readFileSync(file).equals(before)).toBe(true);

		child.stdin.end();
		expect(await exited(child)).toBe(0);
		expect(existsSync(`${file}.lock`)).toBe(false);
		const reopened = await fx.open({ sessionMode: { kind: "file", path: file } });
		expect(reopened.getState().messages).toHaveLength(2);
	}, 60_000);

	it("takes over the lock of a process that was killed", async () => {
		const file = await savedSession();
		const { child } = await hold(file);
		child.kill("SIGKILL");
		await exited(child);
		expect(existsSync(`${file}.lock`)).toBe(true);
		const session = await fx.open({ sessionMode: { kind: "file", path: file } });
		expect(session.getState().sessionFile).toBe(file);
		expect(JSON.parse(readFileSync(`${file}.lock`, "utf8"))).toMatchObject({ pid: process.pid });
	}, 60_000);

	it("a holder process is refused while this process has the file open", async () => {
		const file = await savedSession();
		await fx.open({ sessionMode: { kind: "file", path: file } });
		await expect(hold(file)).rejects.toThrow(`is open in another rudder (pid ${process.pid})`);
	}, 60_000);
});
