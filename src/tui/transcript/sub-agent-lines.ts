// The live line of each sub-agent under its `task` call: name and id, the task, the tool it runs, elapsed
// time and tokens; queued ones say so. The selected one (Enter steers it) is marked. Plain strings,
// sanitised: names come from definition files and tasks from the model.
import { sanitizeTerminalText } from "../../safety/sanitize.js";
import type { SubAgentInfo } from "../../session/types.js";

export interface SubAgentLine {
	agentId: string;
	text: string;
	selected: boolean;
	queued: boolean;
}

function tokens(n: number): string {
	return n >= 1000 ? `${(n / 1000).toFixed(1)}k tokens` : `${n} tokens`;
}

/** One line per sub-agent, in start order; `now` moves the elapsed time of running ones. */
export function subAgentLines(agents: readonly SubAgentInfo[], now: number, selected: string | undefined): SubAgentLine[] {
	return agents.map((a) => {
		const name = sanitizeTerminalText(`${a.name} (${a.agentId})`);
		const task = sanitizeTerminalText(a.task).replace(/\s*\n\s*/g, " ");
		const state =
			a.status === "queued"
				? "queued: waits for a free slot"
				: [
						a.currentTool ? `running ${sanitizeTerminalText(a.currentTool)}` : "thinking",
						`${Math.max(0, Math.floor((now - a.startedAt) / 1000))}s`,
						tokens(a.tokens),
					].join(" · ");
		const mark = a.agentId === selected ? "▸" : "↳";
		return {
			agentId: a.agentId,
			text: `${mark} ${name} ${task} · ${state}`,
			selected: a.agentId === selected,
			queued: a.status === "queued",
		};
	});
}

/** The running sub-agent after `current` in start order, or none after the last (a cycle through them and back to the main agent). */
export function nextSelection(agents: readonly SubAgentInfo[], current: string | undefined): string | undefined {
	const running = agents.filter((a) => a.status === "running").map((a) => a.agentId);
	if (running.length === 0) return undefined;
	const at = current === undefined ? -1 : running.indexOf(current);
	return at + 1 < running.length ? running[at + 1] : undefined;
}

/** The selected sub-agent while it still runs; once it ends the input steers the main agent again. */
export function steeredAgent(agents: readonly SubAgentInfo[] | undefined, selected: string | undefined): string | undefined {
	return selected !== undefined && agents?.some((a) => a.agentId === selected && a.status === "running") ? selected : undefined;
}
