export const serverDist: string;
export const serverEntry: string;
export const generationWorkerEntry: string;
export const serverNodeOptions: string[];
export function serverBuildIsStale(): boolean;
export function buildServer(): Promise<void>;
