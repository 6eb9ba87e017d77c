package shop;

/** Lines of a printed receipt. */
public final class Receipt {
    private Receipt() {}

    /** {@code 1234} as {@code "12.34"}, {@code -5} as {@code "-0.05"}. */
    public static String formatCents(long cents) {
        String sign = "";
        if (cents < 0) {
            sign = "-";
            cents = -cents;
        }
        long euros = cents / 100;
        long rest = cents % 100;
        String pad = rest < 10 ? "0" : "";
        return sign + euros + "." + pad + rest;
    }

    /** {@code "3 x tea 4.50"}; one unit without the count. */
    public static String line(String item, int quantity, int priceCents) {
        if (item == null || item.isEmpty()) {
            throw new IllegalArgumentException("item needs a name");
        }
        if (quantity <= 0) {
            throw new IllegalArgumentException("quantity must be positive");
        }
        String count = quantity == 1 ? "" : quantity + " x ";
        return count + item + " " + formatCents((long) quantity * priceCents);
    }
}
