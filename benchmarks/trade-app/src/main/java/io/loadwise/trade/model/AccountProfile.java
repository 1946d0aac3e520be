package io.loadwise.trade.model;

/** The user's contact details, edited by the "update profile" action. */
public record AccountProfile(
        String userId,
        String fullName,
        String address,
        String email,
        String creditCard) {
}
