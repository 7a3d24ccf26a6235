export default async function globalTeardown() {
  await globalThis.__porticoInfra?.stop();
}
