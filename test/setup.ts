// In-process runs share this process's time zone: the same fixed one the subprocess runs are given.
process.env.TZ = 'UTC';
