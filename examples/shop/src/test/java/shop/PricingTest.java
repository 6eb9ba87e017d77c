package shop;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class PricingTest {
    @Test
    void nearZonesHaveTheirBasePrice() {
        assertEquals(499, Pricing.shipping(500, 1));
        assertEquals(799, Pricing.shipping(500, 2));
    }

    @Test
    void membersGetFivePercent() {
        assertEquals(5, Pricing.discountPercent(1_000, true, null));
    }
}
