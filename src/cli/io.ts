export interface Io {
  out: (text: string) => void;
  err: (text: string) => void;
  isTty: boolean;
}

export const processIo: Io = {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  isTty: Boolean(process.stdout.isTTY) && !process.env.CI,
};
