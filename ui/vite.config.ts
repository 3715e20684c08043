/// <reference types="vitest/config" />
import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";

// The server serves the build from its static resources (ui/build.sh names the folder). `npm run dev`
// proxies the API to a server on 8080, so the dashboard can be worked on with hot reload.
const api = "http://127.0.0.1:8080";
const apiPaths = [
  "/jobs",
  "/agents",
  "/backends",
  "/session",
  "/projects",
  "/users",
  "/queue",
  "/tokens",
  "/tensorboard",
];

export default defineConfig({
  plugins: [react()],
  build: {
    outDir: process.env.TRAINYARD_UI_OUT ?? "dist",
    emptyOutDir: true,
  },
  server: {
    proxy: Object.fromEntries(apiPaths.map((path) => [path, api])),
  },
  test: {
    environment: "jsdom",
    include: ["src/**/*.test.tsx", "src/**/*.test.ts"],
    setupFiles: ["src/testSetup.ts"],
  },
});
