// The components of the sign-in entry (`@portico/kit/signin`): those of the first step and the ones
// every step shares. The later steps take theirs from the whole kit; `ui.ts` has the whole list.
export type { ButtonProps, TextInputProps } from '@mantine/core';
export {
  Alert,
  Anchor,
  Button,
  Center,
  Group,
  Image,
  Loader,
  Paper,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
