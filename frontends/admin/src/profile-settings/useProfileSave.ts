import {
  CURRENT_USER_KEY,
  errorMessage,
  isApiError,
  type ProfileChanges,
  type ProfileUpdate,
  toast,
  useApi,
} from '@portico/kit';
import { useMutation, useQueryClient } from '@tanstack/react-query';

/**
 * PATCH /users/{id} for one section of the settings: the spec's toast on success, the new user in the
 * shared current-user cache; on failure the server's message, and its field messages to `onFields`.
 */
export function useProfileSave(
  userId: string,
  options: {
    onSaved?: (result: ProfileUpdate) => void;
    onFields?: (fields: Record<string, string>) => void;
    successMessage?: string;
    /** The call that saves the changes; the profile's PATCH /users/{id} unless given. */
    send?: (changes: ProfileChanges) => Promise<ProfileUpdate>;
  } = {},
) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (changes: ProfileChanges) =>
      options.send ? options.send(changes) : api.users.updateUser(userId, changes),
    onSuccess: (result) => {
      toast.success(options.successMessage ?? 'Profile updated successfully');
      if (result.user) queryClient.setQueryData(CURRENT_USER_KEY, result.user);
      options.onSaved?.(result);
    },
    onError: (err) => {
      toast.error(errorMessage(err));
      if (isApiError(err) && err.fields) options.onFields?.(err.fields);
    },
  });
}
