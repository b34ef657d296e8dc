/// <reference types="astro/client" />

declare namespace App {
  interface Locals {
    /** The view model of the page being rendered (see src/lib/page-input.ts). */
    pressroom?: import('./lib/page-input.ts').PageInput;
  }
}
