// A session's event stream: every part reports through it (notices, queue and phase changes, approvals,
// checkpoints) and the UI or mode subscribes to it. Notices from before anyone subscribed (resume
// warnings) are kept for the first subscriber; phase watchers see phase changes without subscribing.
import { redactSecrets } from "../safety/secrets.js";
import type { RunPhase, SessionEvent } from "./types.js";

export type NoticeLevel = "info" | "warning" | "error";

export class SessionEvents {
	private readonly listeners = new Set<(event: SessionEvent) => void>();
	/** Notices from before anyone subscribed, delivered to the first subscriber. */
	private readonly earlyNotices: SessionEvent[] = [];
	private readonly phaseWatchers = new Set<(phase: RunPhase) => void>();

	subscribe(listener: (event: SessionEvent) => void): () => void {
		this.listeners.add(listener);
		if (this.earlyNotices.length > 0) {
			const early = this.earlyNotices.splice(0);
			queueMicrotask(() => {
				for (const event of early) this.emit(event);
			});
		}
		return () => {
			this.listeners.delete(listener);
		};
	}

	watchPhases(watcher: (phase: RunPhase) => void): () => void {
		this.phaseWatchers.add(watcher);
		return () => {
			this.phaseWatchers.delete(watcher);
		};
	}

	/** Listener errors are reported to the others as notices, never thrown into the session. */
	readonly emit = (event: SessionEvent): void => {
		if (this.listeners.size === 0) {
			if (event.type === "notice") this.earlyNotices.push(event);
			return;
		}
		for (const listener of this.listeners) {
			try {
				listener(event);
			} catch (error) {
				// A notice that itself throws is not reported again (no loop).
				if (event.type === "notice") continue;
				this.notify("error", `A session listener failed on ${event.type}: ${errorText(error)}`);
			}
		}
	};

	/** Notices quote errors, files and servers; every UI and mode shows them, so they are redacted here. */
	readonly notify = (level: NoticeLevel, text: string): void => {
		this.emit({ type: "notice", level, text: redactSecrets(text) });
	};

	/** The run phase changed: a `phase_changed` event, and each watcher. */
	readonly phaseChanged = (phase: RunPhase): void => {
		this.emit({ type: "phase_changed", phase });
		for (const watcher of this.phaseWatchers) watcher(phase);
	};

	clear(): void {
		this.listeners.clear();
	}
}

/** An error's first line, for a notice. */
export function errorText(error: unknown): string {
	return (error instanceof Error ? error.message : String(error)).split("\n")[0];
}
