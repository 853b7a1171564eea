// Files the build (scripts/build.mjs) imports as text.
declare module "*.clj" {
  const text: string;
  export default text;
}
