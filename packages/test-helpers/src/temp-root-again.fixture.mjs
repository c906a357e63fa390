// The same fixture as a second test file (temp-root.test.ts).
import "./temp-root.fixture.mjs";
