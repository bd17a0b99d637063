// Shared set-up for session tests: a temp project and home, the scripted faux provider, a session on
// it, and a recorder of its events with an event wait (no sleeps).
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type FauxProviderRegistration, type Model, registerFauxProvider } from "../../src/ai/index.js";
import type { AgentSession, SessionModelRegistry } from "../../src/session/agent-session.js";
import { type CreateAgentSessionOptions, createAgentSession } from "../../src/session/assemble.js";
import { mergeSettings, type SettingsFile } from "../../src/session/settings.js";
import type { SessionEvent } from "../../src/session/types.js";

export interface Fixture {
	root: string;
	cwd: string;
	env: Record<string, string>;
	faux: FauxProviderRegistration;
	session: AgentSession;
	events: SessionEvent[];
	/** Resolves with the first recorded event (past or future) that matches; rejects after `timeoutMs`. */
	waitForEvent<T extends SessionEvent["type"]>(
		type: T,
		match?: (e: Extract<SessionEvent, { type: T }>) => boolean,
		timeoutMs?: number,
	): Promise<Extract<SessionEvent, { type: T }>>;
	notices(): string[];
	/** Another session on the same folders; `cleanup` disposes it too. */
	open(options?: Partial<CreateAgentSessionOptions>): Promise<AgentSession>;
	cleanup(): Promise<void>;
}

/** A registry over fixed models, as the session sees `ModelRegistry`. */
export function fixedRegistry(models: Model[], keys: Record<string, string> = {}): SessionModelRegistry {
	return {
		getAvailable: () => models,
		find: (spec) => models.find((m) => `${m.provider}/${m.id}` === spec || m.id.includes(spec)),
		getApiKey: (provider) => keys[provider],
		setApiKey: (provider, key) => {
			keys[provider] = key;
		},
	};
}

export async function createFixture(
	options: { settings?: SettingsFile; session?: Partial<CreateAgentSessionOptions>; fauxRate?: number } = {},
): Promise<Fixture> {
	const root = mkdtempSync(join(tmpdir(), "rudder-session-"));
	const cwd = join(root, "project");
	mkdirSync(cwd);
	// HOME too: ~/.claude/settings.json may hold hooks (src/extensions/hooks), and tests must not run the user's.
	// Prompts wait for each git snapshot however slow the machine is: the tests assert what git covers.
	const env = { RUDDER_HOME: join(root, "home"), HOME: join(root, "user-home"), RUDDER_CHECKPOINT_WAIT_MS: "60000" };
	// A priced reasoning model first (what sessions run on), and a second one for switching tests.
	const faux = registerFauxProvider({
		provider: "faux",
		tokensPerSecond: options.fauxRate,
		tokenSize: { min: 1, max: 1 },
		models: [
			{ id: "faux-1", name: "Faux", reasoning: true, cost: { input: 1, output: 2, cacheRead: 0.1, cacheWrite: 1.25 } },
			{ id: "faux-large", name: "Large", reasoning: true },
		],
	});
	const events: SessionEvent[] = [];
	const waiters = new Set<() => void>();
	const record = (event: SessionEvent) => {
		events.push(event);
		for (const w of [...waiters]) w();
	};
	const opened: AgentSession[] = [];
	const open = async (extra: Partial<CreateAgentSessionOptions> = {}) => {
		const session = await createAgentSession({
			cwd,
			env,
			model: faux.getModel(),
			tools: ["read", "ls"],
			sessionMode: { kind: "new" },
			// Checkpoints (a git snapshot per prompt) are tested in rewind.test.ts; elsewhere they would only add lines to the file.
			settings: mergeSettings({ checkpoints: false, ...options.settings }),
			...options.session,
			...extra,
		});
		session.subscribe(record);
		opened.push(session);
		return session;
	};
	const fixture: Fixture = {
		root,
		cwd,
		env,
		faux,
		events,
		session: await open(),
		open,
		notices: () => events.flatMap((e) => (e.type === "notice" ? [e.text] : [])),
		waitForEvent: (type, match, timeoutMs = 20_000) =>
			new Promise((resolve, reject) => {
				let seen = 0;
				const check = () => {
					for (; seen < events.length; seen++) {
						const e = events[seen];
						if (e.type === type && (!match || match(e as never))) {
							waiters.delete(check);
							clearTimeout(timer);
							resolve(e as never);
							return;
						}
					}
				};
				const timer = setTimeout(() => {
					waiters.delete(check);
					reject(new Error(`timed out waiting for ${type}`));
				}, timeoutMs);
				waiters.add(check);
				check();
			}),
		cleanup: async () => {
			for (const session of opened) await session.dispose();
			faux.unregister();
			rmSync(root, { recursive: true, force: true });
		},
	};
	return fixture;
}

/** Text of every user-role message the model was sent in call `index`. */
export function userTexts(faux: FauxProviderRegistration, index: number): string[] {
	return faux.calls[index].context.messages
		.filter((m) => m.role === "user")
		.map((m) => (typeof m.content === "string" ? m.content : m.content.map((c) => (c.type === "text" ? c.text : `[${c.type}]`)).join("")));
}
