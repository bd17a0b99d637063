// Runs a compaction of the session's context (compaction.ts has the policy and the summary): the older
// turns become one summary message, in the Agent and in the file. Holds the run phase at `compacting`
// while it works; Esc (`abort`) stops it. Input typed meanwhile is queued and sent when it ends.
import type { Agent } from "../agent/index.js";
import type { StreamFn } from "../agent/types.js";
import { type CompactionReason, findCutIndex, summarize } from "./compaction.js";
import type { RunPhaseBox } from "./run-phase.js";
import { errorText } from "./session-events.js";
import type { SessionFile } from "./session-file.js";
import type { CompactionSummaryMessage } from "./session-messages.js";
import type { Settings } from "./settings.js";
import type { SessionEvent } from "./types.js";
import { estimateContext, type UsageTotals } from "./usage-totals.js";

export interface CompactionRunnerDeps {
	agent: Agent;
	settings: Settings;
	phases: RunPhaseBox;
	emit: (event: SessionEvent) => void;
	/** The session's stream function (retry settings applied) and keys, as a run uses them. */
	streamFn: StreamFn;
	apiKeyFor: (provider: string) => string | undefined;
	file: SessionFile;
	usage: UsageTotals;
	/** What the model must still have after the older turns are gone (the todo list), added to the summary. */
	reminder: () => string;
}

export class CompactionRunner {
	private controller?: AbortController;
	private done: Promise<void> = Promise.resolve();
	private queuedDuring = false;

	constructor(private readonly deps: CompactionRunnerDeps) {}

	get active(): boolean {
		return this.controller !== undefined;
	}

	/** Resolves when no compaction runs. */
	settled(): Promise<void> {
		return this.done;
	}

	/** Input was queued: with no run to drain the queue, the compaction sends it when it ends. */
	noteQueued(): void {
		if (this.controller) this.queuedDuring = true;
	}

	abort(): void {
		this.controller?.abort();
	}

	/**
	 * Compacts now; throws what failed (after the `compaction_end` event reported it). Resolves true when
	 * input queued during it should be sent now (a run is to start).
	 */
	async run(reason: CompactionReason, instructions?: string): Promise<boolean> {
		const { agent, settings, phases, emit, file, usage } = this.deps;
		file.sync(agent.state.messages);
		const messages = agent.state.messages;
		const cut = findCutIndex(messages, settings.compaction.keepRecentTokens);
		const controller = new AbortController();
		let finished!: () => void;
		this.done = new Promise((r) => {
			finished = r;
		});
		// Set before the start event, so a listener reading getState() sees it.
		this.controller = controller;
		phases.compactionStarted(reason);
		emit({ type: "compaction_start", reason });
		try {
			if (cut === undefined) throw new Error("Nothing to compact yet: the conversation has a single user turn");
			const model = agent.state.model;
			const summarized = await summarize({
				model,
				messages: messages.slice(0, cut),
				instructions,
				streamFn: this.deps.streamFn,
				apiKey: this.deps.apiKeyFor(model.provider),
				signal: controller.signal,
			});
			const reminder = this.deps.reminder();
			const summary = reminder ? `${summarized}\n\n${reminder}` : summarized;
			const kept = messages.slice(cut);
			const tokensBefore = usage.contextTokens || estimateContext(messages);
			const summaryMessage: CompactionSummaryMessage = { role: "compactionSummary", summary, tokensBefore, timestamp: Date.now() };
			file.log?.appendCompaction(summaryMessage, kept[0]);
			agent.replaceMessages([summaryMessage, ...kept]);
			usage.contextTokens = estimateContext(agent.state.messages);
			emit({ type: "compaction_end", reason, summary });
		} catch (error) {
			emit({ type: "compaction_end", reason, error: errorText(error) });
			throw error;
		} finally {
			this.controller = undefined;
			phases.compactionEnded();
			finished();
		}
		// Messages left queued by an abort stay queued: the user decides what happens to them.
		const queuedDuring = this.queuedDuring;
		this.queuedDuring = false;
		return reason !== "overflow" && queuedDuring && agent.hasQueuedMessages();
	}
}
