x = torch.relu
