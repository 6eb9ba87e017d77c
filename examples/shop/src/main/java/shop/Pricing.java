package shop;

/** Shipping and discounts; all amounts are in cents. */
public final class Pricing {
    private Pricing() {}

    /** Shipping for a parcel of {@code grams} to {@code zone} (1 to 3). */
    public static int shipping(int grams, int zone) {
        if (grams <= 0) {
            throw new IllegalArgumentException("weight must be positive");
        }
        int base;
        switch (zone) {
            case 1:
                base = 499;
                break;
            case 2:
                base = 799;
                break;
            case 3:
                base = 1299;
                break;
            default:
                throw new IllegalArgumentException("unknown zone " + zone);
        }
        if (grams > 20_000) {
            base += (grams - 20_000) / 1000 * 150;
        }
        return base;
    }

    /** The discount in percent: 5 for members, 10 with a SAVE coupon, 5 on large orders. */
    public static int discountPercent(int totalCents, boolean member, String coupon) {
        int percent = 0;
        if (member) {
            percent += 5;
        }
        if (coupon != null && coupon.startsWith("SAVE")) {
            percent += 10;
        }
        if (totalCents > 100_000) {
            percent += 5;
        }
        if (percent > 20) {
            throw new AssertionError("discount above 20%: " + percent);
        }
        return percent;
    }
}
