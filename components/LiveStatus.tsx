// The run's status lines in the live region: the spinner with what the run is doing (or the retry
// countdown), and one line per running `!cmd` with its elapsed seconds. Key hints come from the table.
import { Text } from "ink";
import { useSyncExternalStore } from "react";
import { sanitizeTerminalText } from "../src/safety/sanitize.js";
import type { RunPhase } from "../src/session/types.js";
import type { LiveTick } from "./frame-scheduler.js";
import { spinnerFrame } from "./PendingTools.js";
import { runStatusText } from "./run-status.js";
import type { RunningShell } from "./session-view.js";
import { color, theme } from "./theme.js";

export interface LiveStatusProps {
	/** A run is active and no tool call is being written (that has its own line). */
	working: boolean;
	phase: RunPhase;
	shells: ReadonlyMap<number, RunningShell>;
	now: number;
	/**
	 * The live tail's own frames: with it, the spinners turn (and `now` is read) on those frames too,
	 * without the App rendering.
	 */
	liveTick?: LiveTick;
	/** " · Enter steers · Alt+Enter queues · Esc stops" and " · Esc stops". */
	hints: { working: string; shell: string };
}

const NO_TICK: LiveTick = { get: () => 0, at: () => 0, subscribe: () => () => {}, bump: () => {} };

export function LiveStatus({ working, phase, shells, now: appNow, hints, liveTick }: LiveStatusProps) {
	const tick = liveTick ?? NO_TICK;
	useSyncExternalStore(tick.subscribe, tick.get);
	const now = liveTick ? Date.now() : appNow;
	return (
		<>
			{working ? (
				<Text dimColor wrap="truncate">
					<Text color={color(theme.accent)}>{spinnerFrame(now)}</Text>{" "}
					{sanitizeTerminalText(runStatusText(phase, now, hints.shell) ?? `working${hints.working}`)}
				</Text>
			) : null}
			{[...shells].map(([id, shell]) => (
				<Text key={`shell-${id}`} dimColor wrap="truncate">
					<Text color={color(theme.accent)}>{spinnerFrame(now)}</Text> $ {sanitizeTerminalText(shell.command)} ·{" "}
					{Math.floor((now - shell.startedAt) / 1000)}s{hints.shell}
				</Text>
			))}
		</>
	);
}
