// Mounts the App on a FakeSession in ink-testing-library, with helpers to type and read the frame.
import { rmSync } from "node:fs";
import { render } from "ink-testing-library";
import { afterEach, vi } from "vitest";
import { App, type AppProps } from "../../../src/tui/app/App.js";
import { openInputHistory } from "../../../src/tui/input/input-history.js";
import { FakeSession } from "./fake-session.js";

// A macrotask, then the two setImmediate turns Ink's input parser may take to flush a held ESC
// (docs/ink.md §6); a plain setTimeout(0) can run first on a loaded machine.
export const tick = async () => {
	await new Promise((r) => setTimeout(r, 0));
	for (let i = 0; i < 2; i++) await new Promise((r) => setImmediate(r));
};

let mounted: { unmount: () => void }[] = [];
/** Unmounts `app` after the test (for tests that render the App themselves). */
export const unmountLater = (app: { unmount: () => void }) => {
	mounted.push(app);
};
afterEach(() => {
	for (const m of mounted) m.unmount();
	mounted = [];
});

export async function mountApp(options: { rows?: number; columns?: number } & Partial<Omit<AppProps, "session" | "onExit">> = {}) {
	const { rows = 30, columns = 100, ...props } = options;
	const session = new FakeSession();
	const onExit = vi.fn();
	const app = render(<App session={session} onExit={onExit} history={openInputHistory(null)} size={{ rows, columns }} {...props} />);
	mounted.push(app);
	await tick();
	const frame = () => app.lastFrame() ?? "";
	const type = async (text: string) => {
		app.stdin.write(text);
		await tick();
	};
	return { session, onExit, app, frame, type };
}

/** Mounts the App over a given session (a real AgentSession); the caller unmounts `app` before disposing it. */
export async function mountOnSession(session: AppProps["session"], size: { rows: number; columns: number }) {
	const app = render(<App session={session} onExit={() => {}} history={openInputHistory(null)} size={size} />);
	await tick();
	return {
		app,
		frame: () => app.lastFrame() ?? "",
		type: async (text: string) => {
			app.stdin.write(text);
			await tick();
		},
	};
}

/** What a test over a real session owns and must release after it. */
export interface SessionUnderTest {
	session: AppProps["session"] & { abort(): void; waitForIdle(): Promise<void>; dispose(): Promise<void> };
	faux: { unregister(): void };
	/** The temp folder the test made; removed after it. */
	dir: string;
}

/**
 * The App over a real session, once per test: `mount()` renders it (at `size` unless given); after each test the app is
 * unmounted before the session is stopped and disposed, the faux provider unregistered and the folder
 * removed (in that order: a mounted app would still draw the disposed session's events).
 */
export function appOnSessionPerTest(current: () => SessionUnderTest, size: { rows: number; columns: number }) {
	let app: { unmount: () => void } | undefined;
	afterEach(async () => {
		app?.unmount();
		app = undefined;
		const { session, faux, dir } = current();
		session.abort();
		await session.waitForIdle();
		await session.dispose();
		faux.unregister();
		rmSync(dir, { recursive: true, force: true });
	});
	return {
		async mount(at: { rows: number; columns: number } = size) {
			const mounted = await mountOnSession(current().session, at);
			app = mounted.app;
			return mounted;
		},
	};
}
