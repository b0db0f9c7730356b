// A node whose clock is off by CHAOS_CLOCK_SKEW_MS (node --import): Date.now() and new Date() both.
const skew = Number(process.env.CHAOS_CLOCK_SKEW_MS ?? 0);
const RealDate = Date;

class SkewedDate extends RealDate {
  constructor(...args) {
    if (args.length === 0) super(RealDate.now() + skew);
    else super(...args);
  }
  static now() {
    return RealDate.now() + skew;
  }
}

globalThis.Date = SkewedDate;
