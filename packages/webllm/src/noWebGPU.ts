/** Why WebGPU cannot be used where `navigator.gpu` is missing, in words a user can act on. */
export const NO_WEBGPU =
  'this browser has no WebGPU (navigator.gpu is missing). It needs a secure context (https or localhost) and a browser that ships WebGPU.';
