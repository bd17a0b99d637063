// Tests that read a key from the environment set it only for their own duration.

/** Runs `body` with the env var `name` set to `value`, then restores what was there (or its absence). */
export async function withEnv<T>(name: string, value: string, body: () => Promise<T>): Promise<T> {
	const saved = process.env[name];
	process.env[name] = value;
	try {
		return await body();
	} finally {
		if (saved === undefined) delete process.env[name];
		else process.env[name] = saved;
	}
}
