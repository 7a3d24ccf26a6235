// The components of the sign-in entry (`@portico/kit/signin`); `ui.ts` has the whole list.
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
  PasswordInput,
  Radio,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
