package bank;

/** Fees charged when money leaves a current account; all amounts are in cents. */
public final class Account {
    private Account() {}

    public static int withdrawalFee(int balance, int amount, int withdrawalsThisMonth) {
        final int overdraftLimit = 50_000;
        if (amount <= 0) {
            throw new IllegalArgumentException("amount must be positive");
        }
        int after = balance - amount;
        if (after < -overdraftLimit && withdrawalsThisMonth > 3) {
            return 3_500 + (amount - balance) / 100;
        }
        if (after < 0) {
            return 1_000;
        }
        return withdrawalsThisMonth >= 10 ? 50 : 0;
    }
}
