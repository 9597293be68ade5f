import type { Response } from 'express';

/** Answers with the service's error shape `{error:{code,message}}` (§7). */
export function sendServiceError(res: Response, status: number, code: string, message: string): void {
  res.status(status).json({ error: { code, message } });
}
