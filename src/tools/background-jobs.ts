// Commands the model started with `run_in_background`: each runs like any bash command (same shell,
// sandbox wrapper and environment, a process group of its own registered in process-registry.ts, so
// exit, SIGTERM and SIGHUP kill it), with its output in a 0600 file in the private temp folder, capped.
// Esc does not stop them: only kill_shell, /ps kill, or Rudder's exit.

import type { ChildProcessByStdio } from "node:child_process";
import { randomBytes } from "node:crypto";
import { closeSync, openSync, readSync, writeSync } from "node:fs";
import { join } from "node:path";
import type { Readable } from "node:stream";
import { StringDecoder } from "node:string_decoder";
import { createChunkRedactor } from "../safety/secrets.js";
import { privateTempDir } from "./private-temp.js";
import { type ProcessSlots, toolProcessSlots } from "./process-slots.js";
import { findShell, killProcessGroup, spawnShellCommand } from "./shell.js";

/** A running foreground command as bash hands it over (Ctrl+B): its process and what it printed so far. */
export interface HandedOver {
	command: string;
	child: ChildProcessByStdio<null, Readable, Readable>;
	output: string;
	/** Told the job it became, so the bash call can answer with its id. */
	adopted: (job: JobInfo) => void;
}

export type JobStatus = "running" | "exited" | "killed";

export interface JobInfo {
	id: string;
	command: string;
	startedAt: number;
	status: JobStatus;
	/** Exit code once it exited; null when a signal ended it. */
	exitCode?: number | null;
	signal?: string | null;
	/** Bytes of output kept (at most the cap). */
	outputBytes: number;
	/** Output beyond the cap was dropped. */
	capped: boolean;
}

export interface BackgroundJobsOptions {
	shellPath?: string;
	wrapSpawn?: (file: string, args: string[], cwd: string) => { file: string; args: string[] };
	env?: Record<string, string | undefined>;
	/** Output kept per job; 10 MB. */
	maxOutputBytes?: number;
	killGraceMs?: number;
	/** The tool process slots (tools.maxProcesses) a running job holds one of; default the process-wide ones. */
	slots?: ProcessSlots;
	/** Told when a job starts (or a command is moved here) and when it has ended and its output is in. */
	onEvent?: (event: JobEvent) => void;
}

export type JobEvent = { type: "job_started"; job: JobInfo } | { type: "job_exited"; job: JobInfo };

interface Job extends JobInfo {
	pid?: number;
	file: string;
	fd: number;
	readOffset: number;
	/** The exit was told to the model (bash_output or an exit note). */
	told: boolean;
	exited: Promise<void>;
	decoder: StringDecoder;
	redactor: ReturnType<typeof createChunkRedactor>;
}

/** One session's background jobs. */
export class BackgroundJobs {
	private readonly jobs = new Map<string, Job>();
	private next = 1;
	/** Foreground bash commands running now, by tool call id: each hands itself over when asked. */
	private readonly foreground = new Map<string, () => HandedOver | undefined>();
	private readonly maxOutputBytes: number;
	private readonly slots: ProcessSlots;

	constructor(
		private readonly cwd: string,
		private readonly options: BackgroundJobsOptions = {},
	) {
		this.maxOutputBytes = options.maxOutputBytes ?? 10 * 1024 * 1024;
		this.slots = options.slots ?? toolProcessSlots;
	}

	/**
	 * Starts `command`; its id is `bg<n>`. A running job counts toward the tool process limit
	 * (tools.maxProcesses): with every slot taken it is refused rather than left waiting.
	 */
	start(command: string): JobInfo {
		const slots = this.slots;
		if (slots.isFull) {
			throw new Error(
				`run_in_background: ${slots.running} commands and jobs are running, the limit (tools.maxProcesses ${slots.limit}); stop a background job with kill_shell first`,
			);
		}
		const shell = findShell(this.options.shellPath);
		const child = spawnShellCommand({ shell, command, cwd: this.cwd, env: this.options.env, wrap: this.options.wrapSpawn });
		child.on("error", (error) => this.write(this.jobs.get(id) as Job, `Could not run ${shell}: ${error.message}\n`));
		const id = this.track(command, child, "");
		return this.info(this.jobs.get(id) as Job);
	}

	/** Bash registers a foreground command while it runs; the returned function unregisters it. */
	registerForeground(callId: string, handOver: () => HandedOver | undefined): () => void {
		this.foreground.set(callId, handOver);
		return () => this.foreground.delete(callId);
	}

	/** Whether a foreground command could be moved to the background now. */
	get hasForeground(): boolean {
		return this.foreground.size > 0;
	}

	/**
	 * Moves every running foreground bash command to the background (Ctrl+B): each becomes a job with
	 * the output it printed so far, and its bash call answers at once with the job's id.
	 */
	adoptForeground(): JobInfo[] {
		const adopted: JobInfo[] = [];
		for (const [callId, handOver] of [...this.foreground]) {
			this.foreground.delete(callId);
			const given = handOver();
			if (!given) continue;
			const job = this.info(this.jobs.get(this.track(given.command, given.child, given.output)) as Job);
			given.adopted(job);
			adopted.push(job);
		}
		return adopted;
	}

	/** Keeps a started process as job `bg<n>`, its output (from `initial` on) in a 0600 file. */
	private track(command: string, child: ChildProcessByStdio<null, Readable, Readable>, initial: string): string {
		const id = `bg${this.next++}`;
		const file = join(privateTempDir(), `rudder-job-${id}-${randomBytes(6).toString("hex")}.log`);
		const fd = openSync(file, "wx", 0o600);
		let resolveExit: () => void = () => undefined;
		const job: Job = {
			id,
			command,
			startedAt: Date.now(),
			status: "running",
			outputBytes: 0,
			capped: false,
			pid: child.pid,
			file,
			fd,
			readOffset: 0,
			told: false,
			exited: new Promise<void>((r) => {
				resolveExit = r;
			}),
			decoder: new StringDecoder("utf8"),
			redactor: createChunkRedactor(),
		};
		this.jobs.set(id, job);
		this.write(job, job.redactor.push(initial));
		const onData = (chunk: Buffer) => this.write(job, job.redactor.push(job.decoder.write(chunk)));
		child.stdout.on("data", onData);
		child.stderr.on("data", onData);
		child.on("error", () => {
			job.status = "exited";
			job.exitCode = 127;
			resolveExit();
		});
		// A command handed over after it exited (its pipes still draining) is over already.
		if (child.exitCode !== null || child.signalCode !== null) {
			job.status = "exited";
			job.exitCode = child.exitCode;
			job.signal = child.signalCode;
		}
		child.on("exit", (code, signal) => {
			// Output still in the pipes arrives before "close"; the status is final now.
			if (job.status === "running") job.status = signal && code === null ? "killed" : "exited";
			job.exitCode = code;
			job.signal = signal;
		});
		child.on("close", () => {
			this.write(job, job.redactor.push(job.decoder.end()) + job.redactor.end());
			resolveExit();
		});
		if (child.stdout.destroyed && child.stderr.destroyed) resolveExit();
		// The job holds a process slot until it has ended (a moved command's slot passes to it).
		const release = this.slots.hold();
		void job.exited.then(release);
		const onEvent = this.options.onEvent;
		if (onEvent) {
			onEvent({ type: "job_started", job: this.info(job) });
			void job.exited.then(() => onEvent({ type: "job_exited", job: this.info(job) }));
		}
		return id;
	}

	private write(job: Job, text: string): void {
		if (text === "" || job.capped) return;
		let bytes = Buffer.from(text);
		const room = this.maxOutputBytes - job.outputBytes;
		if (bytes.length > room) {
			bytes = bytes.subarray(0, room);
			job.capped = true;
		}
		try {
			writeSync(job.fd, bytes);
			job.outputBytes += bytes.length;
		} catch {
			// A full disk: the job keeps running, its output is lost.
			job.capped = true;
		}
	}

	private info(job: Job): JobInfo {
		const { id, command, startedAt, status, exitCode, signal, outputBytes, capped } = job;
		return { id, command, startedAt, status, exitCode, signal, outputBytes, capped };
	}

	list(): JobInfo[] {
		return [...this.jobs.values()].map((j) => this.info(j));
	}

	get(id: string): JobInfo | undefined {
		const job = this.jobs.get(id.trim());
		return job && this.info(job);
	}

	/** Resolves once the job exited and its output is in, or after `ms`. */
	async settle(id: string, ms: number): Promise<void> {
		const job = this.jobs.get(id);
		if (!job) return;
		let timer: NodeJS.Timeout | undefined;
		await Promise.race([job.exited, new Promise<void>((r) => (timer = setTimeout(r, ms)))]);
		clearTimeout(timer);
	}

	/** Output since the last read (at most `maxBytes`: its tail, and how much was skipped), and the status. */
	readNew(id: string, maxBytes: number): { info: JobInfo; text: string; skipped: number } | undefined {
		const job = this.jobs.get(id.trim());
		if (!job) return undefined;
		const available = job.outputBytes - job.readOffset;
		const skipped = Math.max(0, available - maxBytes);
		const length = available - skipped;
		const buffer = Buffer.alloc(length);
		const fd = openSync(job.file, "r");
		try {
			readSync(fd, buffer, 0, length, job.readOffset + skipped);
		} finally {
			closeSync(fd);
		}
		job.readOffset = job.outputBytes;
		if (job.status !== "running") job.told = true;
		return { info: this.info(job), text: buffer.toString("utf8"), skipped };
	}

	/** Stops a job's whole process group (SIGTERM, then SIGKILL after the grace period). */
	async kill(id: string): Promise<JobInfo | undefined> {
		const job = this.jobs.get(id.trim());
		if (!job) return undefined;
		if (job.status === "running" && job.pid !== undefined) {
			job.status = "killed";
			killProcessGroup(job.pid, this.options.killGraceMs ?? 500);
			await job.exited;
		}
		return this.info(job);
	}

	/** One line per job that exited since the model last heard of it, and marks them told. */
	takeExitNotes(): string[] {
		const notes: string[] = [];
		for (const job of this.jobs.values()) {
			if (job.status === "running" || job.told) continue;
			job.told = true;
			notes.push(`Background job ${job.id} (${job.command}) ${describeEnd(this.info(job))}; bash_output ${job.id} has its output.`);
		}
		return notes;
	}

	/** Closes the output files (the private folder goes at exit). */
	dispose(): void {
		for (const job of this.jobs.values()) {
			try {
				closeSync(job.fd);
			} catch {
				// Already closed.
			}
		}
	}
}

/** "exited with code 0", "was killed", "was killed by SIGTERM". */
export function describeEnd(info: JobInfo): string {
	if (info.status === "running") return "is running";
	if (info.status === "killed") return "was killed";
	return info.exitCode !== null && info.exitCode !== undefined ? `exited with code ${info.exitCode}` : `was killed by ${info.signal}`;
}
