import type { GenerateResponse } from '@flashcards/shared/api-types';
import { timeouts } from '@flashcards/shared/limits';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../../lib/api-context';
import { billingKeys } from '../billing/billing-api';

/**
 * POST /create (multipart `text` and/or `file`) with the 180 s generation timeout. The quota is refreshed after
 * every attempt, won or lost (a failed generation is refunded by the server).
 */
export function useGenerateCards() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: { text: string; file: File | null }) => {
      const formData = new FormData();
      if (input.text.trim()) formData.append('text', input.text);
      if (input.file) formData.append('file', input.file, input.file.name);
      const response = await api.post<GenerateResponse>('/create', {
        formData,
        timeoutMs: timeouts.generationRequestMs,
      });
      if (!response || !Array.isArray(response.cards)) throw new Error('malformed generation response');
      return response;
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: billingKeys.status }),
  });
}
