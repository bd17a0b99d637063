// The model's handles on background jobs: bash's `run_in_background` start, `bash_output` (what is new
// since the last read, and the status) and `kill_shell`.
import { type Static, Type } from "typebox";
import type { AgentTool } from "../agent/types.js";
import { type BackgroundJobs, describeEnd, type JobInfo } from "./background-jobs.js";
import { DEFAULT_MAX_BYTES, formatSize } from "./truncate.js";

/** How long a start waits for the first output (or an early exit) before answering. */
const FIRST_OUTPUT_MS = 1000;

export interface JobToolDetails {
	job: JobInfo;
}

type JobResult = { content: { type: "text"; text: string }[]; details: JobToolDetails };

function statusLine(info: JobInfo): string {
	return `Status: ${describeEnd(info)}${info.capped ? ` (output kept: first ${formatSize(info.outputBytes)})` : ""}`;
}

/** What the model reads: new output (or none) and the status. */
function readResult(jobs: BackgroundJobs, id: string): JobResult {
	const read = jobs.readNew(id, DEFAULT_MAX_BYTES);
	if (!read)
		throw new Error(
			`No background job "${id}" (jobs: ${
				jobs
					.list()
					.map((j) => j.id)
					.join(", ") || "none"
			})`,
		);
	const parts = [read.text.replace(/\n$/, "") || "(no new output)"];
	if (read.skipped > 0) parts.unshift(`[${formatSize(read.skipped)} of earlier output skipped]`);
	parts.push(statusLine(read.info));
	return { content: [{ type: "text", text: parts.join("\n") }], details: { job: read.info } };
}

/** bash with run_in_background: starts the job, waits up to a second for first output, answers with its id. */
export async function startBackgroundJob(jobs: BackgroundJobs, command: string): Promise<JobResult> {
	const started = jobs.start(command);
	await jobs.settle(started.id, FIRST_OUTPUT_MS);
	const first = readResult(jobs, started.id);
	const text = `Started background job ${started.id}. It keeps running after this call (Esc does not stop it); bash_output ${started.id} shows new output, kill_shell ${started.id} stops it.\n${first.content[0].text}`;
	return { content: [{ type: "text", text }], details: first.details };
}

const idSchema = Type.Object({ id: Type.String({ description: "The job id bash returned, e.g. bg1" }) });

/** A tool taking one job id. */
function jobTool(name: string, description: string, run: (id: string) => Promise<JobResult>): AgentTool<typeof idSchema, JobToolDetails> {
	return { name, label: name, description, parameters: idSchema, execute: (_call, params: Static<typeof idSchema>) => run(params.id) };
}

export function createBashOutputTool(jobs: BackgroundJobs): AgentTool<typeof idSchema, JobToolDetails> {
	const description = "Output a background job (bash with run_in_background) printed since the last read, and whether it is still running.";
	return jobTool("bash_output", description, async (id) => readResult(jobs, id));
}

export function createKillShellTool(jobs: BackgroundJobs): AgentTool<typeof idSchema, JobToolDetails> {
	return jobTool("kill_shell", "Stop a background job and every process it started.", async (id) => {
		const info = await jobs.kill(id);
		if (!info) throw new Error(`No background job "${id}"`);
		return {
			content: [{ type: "text", text: `Background job ${info.id} (${info.command}): ${describeEnd(info)}` }],
			details: { job: info },
		};
	});
}
